/**
 * Picks the candidate media type the client prefers, by the `Accept` header's q-values.
 * Returns the candidate's index, or -1 when the client accepts none of them (callers then fall back
 * to their default). Ties go to the more specific range, then to the candidates' order.
 *
 * @example
 * pickMediaType("application/json;q=0.9, text/html", ["text/plain", "application/json", "text/html"]); // 2
 */
export function pickMediaType(accept: string | null, candidates: readonly string[]): number {
  if (!accept || accept === "*/*") return 0;
  const ranges = parseAccept(accept);
  let best = -1;
  let bestQ = 0;
  let bestSpecificity = -1;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const slash = candidate.indexOf("/");
    const type = candidate.slice(0, slash);
    let q = -1;
    let specificity = -1;
    for (const range of ranges) {
      let s: number;
      if (range.type === "*") s = 0;
      else if (range.type !== type) continue;
      else if (range.subtype === "*") s = 1;
      else if (range.type + "/" + range.subtype === candidate) s = 2;
      else continue;
      // The most specific matching range decides the candidate's quality (RFC 9110 §12.5.1).
      if (s > specificity) {
        specificity = s;
        q = range.q;
      }
    }
    if (q > bestQ || (q === bestQ && q > 0 && specificity > bestSpecificity)) {
      best = i;
      bestQ = q;
      bestSpecificity = specificity;
    }
  }
  return best;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const MAX_RANGES = 32;

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(",", MAX_RANGES)) {
    const params = part.split(";");
    const mediaType = params[0]!.trim().toLowerCase();
    const slash = mediaType.indexOf("/");
    if (slash <= 0) continue;
    let q = 1;
    for (let i = 1; i < params.length; i++) {
      const param = params[i]!.trim();
      if (param.startsWith("q=") || param.startsWith("Q=")) {
        const value = Number(param.slice(2));
        q = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
      }
    }
    ranges.push({ type: mediaType.slice(0, slash), subtype: mediaType.slice(slash + 1), q });
  }
  return ranges;
}
