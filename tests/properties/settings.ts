// Every property runs from a fixed seed (the same cases each run; `PROPERTY_SEED=n` explores others,
// and a failure prints the seed and path that reproduce it), within a time budget per property: on a
// slow or busy machine a property stops early (its cases so far must pass) instead of slowing the loop.
import fc from "fast-check";

fc.configureGlobal({
  seed: Number(process.env.PROPERTY_SEED ?? 20_261_126),
  interruptAfterTimeLimit: Number(process.env.PROPERTY_BUDGET_MS ?? 4000),
  markInterruptAsFailure: false,
});
