/**
 * `SessionProvider` rendered on the server (react-dom/server), as Next.js prerenders a client
 * component: with Cache Components a render that reads the clock fails `next build`, so the
 * provider must render from its props alone.
 */

import type { Session } from "@tessera/core";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { __NEXTAUTH, SessionProvider, useSession } from "../src/react.js";

/** `<SessionProvider session={session}><Status /></SessionProvider>`. */
function providerWith(session: Session | null) {
  // biome-ignore lint/correctness/noChildrenProp: createElement's types want the required `children` among the props
  return createElement(SessionProvider, { session, children: createElement(Status) });
}

function Status() {
  const { status, data } = useSession();
  return createElement("p", null, `${status}:${data?.user?.name ?? ""}`);
}

describe("SessionProvider rendered on the server", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    __NEXTAUTH._session = undefined;
    __NEXTAUTH._lastSync = 0;
  });

  it("renders a session from the server without reading the clock", () => {
    const clock = vi.spyOn(Date, "now");
    const session = { user: { name: "Ada" }, expires: "2099-01-01T00:00:00.000Z" };
    const html = renderToString(providerWith(session));
    expect(html).toContain("authenticated:Ada");
    expect(clock).not.toHaveBeenCalled();
  });

  it("renders a signed-out visitor (session null) without reading the clock", () => {
    const clock = vi.spyOn(Date, "now");
    const html = renderToString(providerWith(null));
    expect(html).toContain("unauthenticated:");
    expect(clock).not.toHaveBeenCalled();
  });
});
