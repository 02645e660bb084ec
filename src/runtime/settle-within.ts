// Waiting for something that may never come (a hung broker, a client that does not answer a close),
// but not for ever.

/**
 * Resolves `true` once `work` settles (resolved or rejected) within `ms`, else `false` at `ms`. The
 * timer is cleared either way, so it holds no process open.
 */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
