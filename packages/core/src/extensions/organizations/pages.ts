/**
 * The built-in invitation page (`<basePath>/organizations/join?invitationId=…`), in the shell and
 * style of the sign-in page (light and dark, narrow screens). Its texts come from the extension's
 * dictionary (messages/en.ts and its translations) in the request's language; every value is
 * escaped by `html`.
 */
import type { Translator } from "../../lib/i18n/messages.js";
import { html } from "../../lib/pages/html.js";
import { actionBase, icons, renderPage } from "../../lib/pages/layout.js";
import type { PageTheme } from "../../lib/pages/types.js";
import type { ResponseInternal } from "../../types.js";
import type { OrganizationMessages } from "./messages/index.js";

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
  /** The invitation page's texts in the request's language. */
  t: Translator<OrganizationMessages>;
}

/** A key of the invitation page's texts, without the dictionary's prefix. */
type InvitationKey = keyof OrganizationMessages extends `organizations.invitation.${infer Key}`
  ? Key
  : never;

const CSS = `
.choices { display: flex; flex-direction: column; gap: 8px; }
`;

/** The invitation page for `view`. */
export function invitationPage(
  p: InvitationPageContext,
  view: InvitationView,
  status = 200,
): ResponseInternal<string> {
  const { t } = p;
  const text = (key: InvitationKey, values?: Readonly<Record<string, string>>) =>
    t(`organizations.invitation.${key}`, values);
  const base = actionBase(p.url);
  const back = new URLSearchParams({ callbackUrl: p.pageUrl });
  const page = (
    heading: InvitationKey,
    subtitle: string,
    content: ReturnType<typeof html>,
    tone?: "danger",
  ) =>
    renderPage({
      url: p.url,
      theme: p.theme,
      status,
      title: text("title"),
      heading: text(heading),
      subtitle,
      icon: { svg: tone ? icons.warning : icons.mail, ...(tone && { tone }) },
      css: CSS,
      language: t,
      content,
    });
  switch (view.state) {
    case "signed-out":
      return page(
        "heading",
        text("signedOutSubtitle"),
        html`<a class="button primary" href="${base}/signin?${back.toString()}">${text("signIn")}</a>`,
      );
    case "other-address":
      return page(
        "heading",
        text("otherAddressSubtitle", { email: view.email }),
        html`<a class="button primary" href="${base}/signout?${back.toString()}">${text("signOut")}</a>`,
        "danger",
      );
    case "open":
      return page(
        "heading",
        text("openSubtitle", { organization: view.organization, role: view.role }),
        html`<div class="choices">
<form action="${base}/organizations/join" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="invitationId" value="${view.invitationId}"><input type="hidden" name="answer" value="accept">
<button type="submit" class="button primary">${text("accept")}</button>
</form>
<form action="${base}/organizations/join" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="invitationId" value="${view.invitationId}"><input type="hidden" name="answer" value="decline">
<button type="submit" class="button secondary">${text("decline")}</button>
</form>
</div>`,
      );
    case "closed":
      return page("closedHeading", text("closedSubtitle"), html``, "danger");
    case "accepted":
    case "declined": {
      const accepted = view.state === "accepted";
      return page(
        accepted ? "acceptedHeading" : "declinedHeading",
        text(accepted ? "acceptedSubtitle" : "declinedSubtitle", {
          organization: view.organization,
        }),
        html`<a class="button primary" href="${p.url.origin}/">${text("continue")}</a>`,
      );
    }
  }
}
