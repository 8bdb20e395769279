/** Minimal `Set-Cookie` parser for tests (name, value, attributes). */
export interface ParsedSetCookie {
  name: string;
  value: string;
  maxAge?: number;
  expires?: Date;
  path?: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: string;
}

export function parseSetCookie(header: string): ParsedSetCookie {
  const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
  const separator = pair.indexOf("=");
  const cookie: ParsedSetCookie = {
    name: pair.slice(0, separator),
    value: decodeURIComponent(pair.slice(separator + 1)),
    httpOnly: false,
    secure: false,
  };
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=");
    switch (key.toLowerCase()) {
      case "max-age":
        cookie.maxAge = Number(value);
        break;
      case "expires":
        cookie.expires = new Date(value);
        break;
      case "path":
        cookie.path = value;
        break;
      case "httponly":
        cookie.httpOnly = true;
        break;
      case "secure":
        cookie.secure = true;
        break;
      case "samesite":
        cookie.sameSite = value;
        break;
    }
  }
  return cookie;
}

/** All cookies a response sets, by name. */
export function setCookies(response: Response): Map<string, ParsedSetCookie> {
  return new Map(
    response.headers.getSetCookie().map((h) => {
      const c = parseSetCookie(h);
      return [c.name, c];
    }),
  );
}
