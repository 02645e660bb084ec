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
      else if (`${range.type}/${range.subtype}` === candidate) s = 2;
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

/**
 * Picks the content coding the client accepts with the highest q-value (`Accept-Encoding`, RFC 9110
 * §12.5.3), ties going to the candidates' order; `*` stands for any coding not listed. Returns
 * `undefined` when the client accepts none of them (the response is then sent as is).
 *
 * @example
 * pickEncoding("gzip;q=0.5, br", ["br", "gzip"]); // "br"
 */
export function pickEncoding(header: string | null, candidates: readonly string[]): string | undefined {
  if (!header) return undefined;
  const listed = weighted(header);
  let best: string | undefined;
  let bestQ = 0;
  for (const candidate of candidates) {
    let q = -1;
    let any = -1;
    for (const { token, q: weight } of listed) {
      if (token === candidate) q = weight;
      else if (token === "*") any = weight;
    }
    if (q === -1) q = any;
    if (q > bestQ) {
      best = candidate;
      bestQ = q;
    }
  }
  return best;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const MAX_ITEMS = 32;

// The items of a list header with their q-values (a bad q counts as 0), lower-cased; past 32 items
// the rest is ignored.
function weighted(header: string): { token: string; q: number }[] {
  const items: { token: string; q: number }[] = [];
  for (const part of header.split(",", MAX_ITEMS)) {
    const params = part.split(";");
    const token = params[0]!.trim().toLowerCase();
    if (token === "") continue;
    let q = 1;
    for (let i = 1; i < params.length; i++) {
      const param = params[i]!.trim();
      if (param.startsWith("q=") || param.startsWith("Q=")) {
        const value = Number(param.slice(2));
        q = Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
      }
    }
    items.push({ token, q });
  }
  return items;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const { token, q } of weighted(accept)) {
    const slash = token.indexOf("/");
    if (slash <= 0) continue;
    ranges.push({ type: token.slice(0, slash), subtype: token.slice(slash + 1), q });
  }
  return ranges;
}
