/**
 * The media type of a `Content-Type` value, lower case, without parameters: the one parser every
 * check shares (body sources, CSRF, compression), so that `Application/JSON ; charset=utf-8` or a
 * tab before the `;` mean the same everywhere.
 */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return "";
  const semicolon = contentType.indexOf(";");
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
