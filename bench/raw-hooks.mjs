// Lets benchmarks import harness modules as the app's bundler does: `./x.md?raw` is the file's text.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      export async function resolve(specifier, context, next) {
        if (specifier.endsWith('?raw')) {
          const url = new URL(specifier, context.parentURL);
          return { url: url.href, shortCircuit: true, format: 'module' };
        }
        return next(specifier, context);
      }
      export async function load(url, context, next) {
        if (url.endsWith('?raw')) {
          const file = fileURLToPath(url.slice(0, -4));
          return { format: 'module', shortCircuit: true, source: 'export default ' + JSON.stringify(readFileSync(file, 'utf8')) + ';' };
        }
        return next(url, context);
      }
    `),
);
