import { z } from 'zod';

// zod compiles fast parsers with `new Function` when it can, and probes for that on first use. The
// page's policy refuses eval (rightly), so the probe only logged a CSP violation on every start;
// jitless mode skips the probe and parses the same way it already had to.
z.config({ jitless: true });
