// Reading a request's Content-Type (RFC 9110 §8.3): every part of the runtime that decides by
// it (body parsing, webhooks, the cross-site form check, pages' caller detection) reads it here,
// so they agree on what `Application/JSON ; charset="UTF-8"` means.

/** The media type, lower case, without parameters; "" when there is no header. */
export function mediaType(header: string | undefined): string {
  if (header === undefined) return "";
  const semicolon = header.indexOf(";");
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/** `application/json` and the `application/*+json` types (RFC 6839 §3.1). */
export function isJsonMedia(media: string): boolean {
  return media === "application/json" || (media.startsWith("application/") && media.endsWith("+json"));
}

/** Every value of the parameter `name` (lower case, unquoted), in order: a header may repeat one. */
export function parameterValues(header: string, name: string): string[] {
  const values: string[] = [];
  const semicolon = header.indexOf(";");
  if (semicolon === -1) return values;
  for (const param of header.slice(semicolon + 1).split(";")) {
    const eq = param.indexOf("=");
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== name) continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    values.push(value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value);
  }
  return values;
}
