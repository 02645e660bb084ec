// The statistics every paired comparison of bench/ uses: a median, and a bootstrap interval of it.

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The 95 % interval of the median of `values` by the percentile bootstrap (10,000 resamples, a fixed
 * seed so that one set of figures always gives one interval).
 */
export function bootstrapInterval(values: readonly number[], resamples = 10_000): [number, number] {
  let seed = 0x2545f491;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const medians = new Float64Array(resamples);
  const draw = new Array<number>(values.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++) draw[i] = values[Math.floor(random() * values.length)]!;
    medians[r] = median(draw);
  }
  medians.sort();
  return [medians[Math.floor(resamples * 0.025)]!, medians[Math.ceil(resamples * 0.975) - 1]!];
}
