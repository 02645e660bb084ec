// YYYY-MM-DD, optionally THH:MM[:SS[.fraction]], optionally Z or ±HH[:]MM.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Parses an ISO 8601 date or date-time into a `Date`, or returns `undefined`. A date-time without an
 * offset is read as UTC, so that the result does not depend on the server's time zone.
 */
export function parseIsoDate(text: string): Date | undefined {
  const m = ISO_8601.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00", fraction = "", zone = "Z"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(
    year,
    month - 1,
    day,
    hour,
    minute,
    second,
    Number(fraction.slice(0, 3).padEnd(3, "0")),
  );
  const check = new Date(ms);
  // Date.UTC rolls 2024-02-30 over to March: a changed day means the date does not exist.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  let offset = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const zoneHours = Number(digits.slice(0, 2));
    const zoneMinutes = Number(digits.slice(2) || "0");
    if (zoneHours > 23 || zoneMinutes > 59) return undefined;
    offset = sign * (zoneHours * 60 + zoneMinutes) * 60_000;
  }
  const date = new Date(ms - offset);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
