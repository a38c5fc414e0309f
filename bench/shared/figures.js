/** Small number helpers shared by the benchmark reports. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Kilobytes (as /usr/bin/time and VmHWM report them) to MB of 10^6 bytes. */
export const mb = (kb) => (kb * 1024) / 1e6;
