import { configure } from '@testing-library/react';

/*
 * Testing Library's waitFor and findBy* give up after 1 s by default. What they wait for (a store
 * answered from the test's fake IPC, a lazy view, a deferred render) does come, but on a loaded
 * two-core CI machine not always within a second. The bound is the test's timeout instead; a
 * check that must hold at once is written without waiting.
 */
configure({ asyncUtilTimeout: 15_000 });
