/**
 * The built-in invitation page (`<basePath>/organizations/join?invitationId=…`), in the shell and
 * style of the sign-in page (light and dark, narrow screens). Its texts are the keyed
 * {@link INVITATION_MESSAGES}; every value is escaped by `html`.
 */
import { html } from "../../lib/pages/html.js";
import { actionBase, icons, renderPage } from "../../lib/pages/layout.js";
import type { PageTheme } from "../../lib/pages/types.js";
import type { ResponseInternal } from "../../types.js";
import { type InvitationMessageKey, invitationText } from "./messages.js";

/** Where the invitation stands for the one looking at it. */
export type InvitationView =
  | { state: "signed-out" }
  | { state: "other-address"; email: string }
  | { state: "open"; invitationId: string; organization: string; role: string }
  | { state: "closed" }
  | { state: "accepted" | "declined"; organization: string };

/** What the page needs besides the view. */
export interface InvitationPageContext {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
  /** This page's own address, where sign-in and sign-out return to. */
  pageUrl: string;
}

const CSS = `
.choices { display: flex; flex-direction: column; gap: 8px; }
`;

/** The invitation page for `view`. */
export function invitationPage(
  p: InvitationPageContext,
  view: InvitationView,
  status = 200,
): ResponseInternal<string> {
  const base = actionBase(p.url);
  const back = new URLSearchParams({ callbackUrl: p.pageUrl });
  const page = (
    heading: InvitationMessageKey,
    subtitle: string,
    content: ReturnType<typeof html>,
    tone?: "danger",
  ) =>
    renderPage({
      url: p.url,
      theme: p.theme,
      status,
      title: invitationText("title"),
      heading: invitationText(heading),
      subtitle,
      icon: { svg: tone ? icons.warning : icons.mail, ...(tone && { tone }) },
      css: CSS,
      content,
    });
  switch (view.state) {
    case "signed-out":
      return page(
        "heading",
        invitationText("signedOutSubtitle"),
        html`<a class="button primary" href="${base}/signin?${back.toString()}">${invitationText("signIn")}</a>`,
      );
    case "other-address":
      return page(
        "heading",
        invitationText("otherAddressSubtitle", { email: view.email }),
        html`<a class="button primary" href="${base}/signout?${back.toString()}">${invitationText("signOut")}</a>`,
        "danger",
      );
    case "open":
      return page(
        "heading",
        invitationText("openSubtitle", { organization: view.organization, role: view.role }),
        html`<div class="choices">
<form action="${base}/organizations/join" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="invitationId" value="${view.invitationId}"><input type="hidden" name="answer" value="accept">
<button type="submit" class="button primary">${invitationText("accept")}</button>
</form>
<form action="${base}/organizations/join" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="invitationId" value="${view.invitationId}"><input type="hidden" name="answer" value="decline">
<button type="submit" class="button secondary">${invitationText("decline")}</button>
</form>
</div>`,
      );
    case "closed":
      return page("closedHeading", invitationText("closedSubtitle"), html``, "danger");
    case "accepted":
    case "declined": {
      const accepted = view.state === "accepted";
      return page(
        accepted ? "acceptedHeading" : "declinedHeading",
        invitationText(accepted ? "acceptedSubtitle" : "declinedSubtitle", {
          organization: view.organization,
        }),
        html`<a class="button primary" href="${p.url.origin}/">${invitationText("continue")}</a>`,
      );
    }
  }
}
