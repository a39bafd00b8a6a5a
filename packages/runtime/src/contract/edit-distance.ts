/**
 * The one edit distance of both packages: the runtime's spec parser suggests a near field name with it, and
 * `npx projen contract:generate` copies it into the construct library (src/private/contract.generated.ts), whose
 * JumpStart lookups suggest near model ids with it.
 */

/** Levenshtein distance, giving up (returning max + 1) once every path exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length];
}
