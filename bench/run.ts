import { benchColdStart } from './coldStart.js';
import { benchObservability } from './observability.js';
import { benchSessionAppend } from './sessionAppend.js';
import { benchTurnOverhead } from './turnOverhead.js';

// `npm run bench`: prints figures, asserts nothing. Machines here are noisy: compare
// figures within one run, not across runs.

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
await benchTurnOverhead();
await benchObservability();
await benchSessionAppend();
await benchColdStart();
