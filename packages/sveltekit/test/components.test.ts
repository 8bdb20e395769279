/**
 * `SignIn` and `SignOut` (`@tessera/sveltekit/components`) rendered by Svelte's real compiler and
 * server renderer. `$app/forms` and `$app/paths` exist only inside a SvelteKit app, so the
 * compiled components import stand-ins here (`enhance` does nothing, `base` is `/base`);
 * app.test.ts runs the components in a built app and in Chromium.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Component, createRawSnippet } from "svelte";
import { compile } from "svelte/compiler";
import { render } from "svelte/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignInProps, SignOutProps } from "../src/components/types.js";

const here = dirname(fileURLToPath(import.meta.url));
const sources = join(here, "../src/components");
let dir: string;
let SignIn: Component<SignInProps>;
let SignOut: Component<SignOutProps>;

/** Compiles a component for the server, with `$app/*` pointing at the stand-ins. */
async function compileComponent(name: string): Promise<void> {
  const source = await readFile(join(sources, `${name}.svelte`), "utf8");
  const { js } = compile(source, { generate: "server", filename: `${name}.svelte` });
  const code = js.code
    .replace(/from ["']\$app\/forms["']/, 'from "./app-forms.js"')
    .replace(/from ["']\$app\/paths["']/, 'from "./app-paths.js"')
    .replace(/from ["']\.\/(\w+)\.svelte["']/g, 'from "./$1.js"');
  await writeFile(join(dir, `${name}.js`), code);
}

beforeAll(async () => {
  // Inside the repository, so that the compiled code resolves `svelte` from its node_modules.
  await mkdir(join(here, "../.svelte-kit"), { recursive: true });
  dir = await mkdtemp(join(here, "../.svelte-kit/components-"));
  await writeFile(join(dir, "app-forms.js"), "export function enhance() {}\n");
  await writeFile(join(dir, "app-paths.js"), 'export const base = "/base";\n');
  await compileComponent("RenderSnippet");
  await compileComponent("SignIn");
  await compileComponent("SignOut");
  SignIn = (await import(pathToFileURL(join(dir, "SignIn.js")).href)).default;
  SignOut = (await import(pathToFileURL(join(dir, "SignOut.js")).href)).default;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An element's attributes, from its start tag (`name="value"` or bare `name`). */
function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name = "", value = ""] of tag.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g))
    attributes[name] = value
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&amp;/g, "&");
  return attributes;
}

/**
 * The rendered form: its attributes, every input's attributes, the hidden fields in order and
 * the button's text (Svelte's server output is regular enough for patterns).
 */
function parse(html: string) {
  const form = /<form([^>]*)>([\s\S]*)<\/form>/.exec(html);
  if (!form) throw new Error(`no form in ${html}`);
  const attributes = attributesOf(form[1] ?? "");
  const body = form[2] ?? "";
  const inputs = [...body.matchAll(/<input([^>]*)>/g)].map((match) => attributesOf(match[1] ?? ""));
  const button = /<button[^>]*>([\s\S]*?)<\/button>/.exec(body)?.[1] ?? "";
  return {
    attributes,
    action: attributes.action,
    method: attributes.method,
    className: attributes.class?.replace(/\s+/g, " ").trim(),
    inputs,
    hidden: inputs
      .filter((input) => input.type === "hidden")
      .map((input): [string, string] => [input.name ?? "", input.value ?? ""]),
    button: button
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]*>/g, "")
      .trim(),
  };
}

let templates = 0;

/**
 * Renders `markup`, a page using `SignIn`/`SignOut`, compiled like an app's page: content for
 * the components is passed the way apps pass it (snippets in runes mode, `slot="…"` in legacy
 * mode), which is what reaches the components' slots.
 */
async function renderPage(markup: string, mode: "runes" | "legacy"): Promise<string> {
  const name = `Page${++templates}`;
  const source = `${mode === "runes" ? "<svelte:options runes />" : ""}
<script>import SignIn from "./SignIn.js"; import SignOut from "./SignOut.js";</script>
${markup}`;
  const { js } = compile(source, { generate: "server", filename: `${name}.svelte` });
  await writeFile(join(dir, `${name}.js`), js.code);
  const page = (await import(pathToFileURL(join(dir, `${name}.js`)).href)).default;
  return render(page, { props: {} }).body;
}

describe("SignIn", () => {
  it("posts to <base>/signin with the provider id; the button names the provider", () => {
    const form = parse(render(SignIn, { props: { provider: "github" } }).body);
    expect(form).toMatchObject({
      action: "/base/signin",
      method: "POST",
      className: "signInButton",
      hidden: [["providerId", "github"]],
      button: "Sign in with github",
    });
    expect(parse(render(SignIn, { props: {} }).body)).toMatchObject({
      hidden: [["providerId", ""]],
      button: "Sign in",
    });
  });

  it("posts to the signInPage route, with or without a leading slash", () => {
    for (const signInPage of ["login/here", "/login/here"])
      expect(parse(render(SignIn, { props: { signInPage } }).body).action).toBe("/base/login/here");
  });

  it("sends redirectTo as callbackUrl and redirect: false as redirect=false, from an object or FormData", () => {
    const options = { redirectTo: "/dashboard", redirect: false };
    const formData = new FormData();
    formData.set("redirectTo", "/dashboard");
    formData.set("redirect", "false");
    for (const given of [options, formData])
      expect(
        parse(render(SignIn, { props: { provider: "github", options: given } }).body).hidden,
      ).toEqual([
        ["providerId", "github"],
        ["callbackUrl", "/dashboard"],
        ["redirect", "false"],
      ]);
    // redirect: true is the default and needs no field.
    const defaults = parse(
      render(SignIn, { props: { options: { redirectTo: "/x", redirect: true } } }).body,
    );
    expect(defaults.hidden.map(([name]) => name)).toEqual(["providerId", "callbackUrl"]);
  });

  it("sends authorizationParams as authorizationParams-<name> fields, in every accepted shape", () => {
    const shapes = [
      { prompt: "login", login_hint: "ada@example.com" },
      "prompt=login&login_hint=ada%40example.com",
      new URLSearchParams({ prompt: "login", login_hint: "ada@example.com" }),
      [
        ["prompt", "login"],
        ["login_hint", "ada@example.com"],
      ],
    ];
    for (const authorizationParams of shapes)
      expect(
        parse(render(SignIn, { props: { provider: "op", authorizationParams } }).body).hidden,
      ).toEqual([
        ["providerId", "op"],
        ["authorizationParams-prompt", "login"],
        ["authorizationParams-login_hint", "ada@example.com"],
      ]);
  });

  it("adds an e-mail input for e-mail providers, which the email snippet replaces", async () => {
    const emailInputs = (props: SignInProps) =>
      parse(render(SignIn, { props }).body).inputs.filter((input) => input.name === "email");
    for (const provider of ["resend", "nodemailer", "sendgrid", "postmark"])
      expect(emailInputs({ provider }), provider).toEqual([
        expect.objectContaining({ type: "email", required: "" }),
      ]);
    expect(emailInputs({ provider: "github" })).toEqual([]);
    const replaced = parse(
      await renderPage(
        `<SignIn provider="resend">{#snippet email()}<input name="email" id="mine" />{/snippet}</SignIn>`,
        "runes",
      ),
    ).inputs.filter((input) => input.name === "email");
    expect(replaced).toEqual([{ name: "email", id: "mine" }]);
  });

  it.each([
    [
      "snippets (runes mode)",
      "runes",
      `{#snippet credentials()}<input name="username" />{/snippet}{#snippet submitButton()}<span>Go</span>{/snippet}`,
    ],
    [
      "slot= content (legacy mode)",
      "legacy",
      `<input slot="credentials" name="username" /><span slot="submitButton">Go</span>`,
    ],
  ] as const)(
    "renders credentials and submitButton content passed as %s",
    async (_, mode, content) => {
      const html = await renderPage(
        `<SignIn provider="password-login" className="wide" class="primary" id="login" aria-label="Sign in">${content}</SignIn>`,
        mode,
      );
      const { attributes, inputs, className, button } = parse(html);
      expect(className).toBe("signInButton wide primary");
      expect(attributes).toMatchObject({ id: "login", "aria-label": "Sign in" });
      expect(inputs.some((input) => input.name === "username")).toBe(true);
      expect(button).toBe("Go");
      // The content is content, not attributes of the form.
      expect(Object.keys(attributes)).toEqual(["method", "action", "class", "id", "aria-label"]);
    },
  );

  it("renders snippets passed as props, as mount(SignIn, { props }) does", () => {
    const snippet = (html: string) => createRawSnippet(() => ({ render: () => html }));
    const { inputs, button } = parse(
      render(SignIn, {
        props: {
          provider: "resend",
          email: snippet('<input name="email" id="mine" />'),
          credentials: snippet('<input name="code" />'),
          submitButton: snippet("<span>Send the link</span>"),
        },
      }).body,
    );
    expect(inputs.filter((input) => input.type !== "hidden")).toEqual([
      { name: "code" },
      { name: "email", id: "mine" },
    ]);
    expect(button).toBe("Send the link");
  });
});

describe("SignOut", () => {
  it("posts to <base>/signout with redirectTo and redirect=false; the button says Sign Out", async () => {
    expect(parse(render(SignOut, { props: {} }).body)).toMatchObject({
      action: "/base/signout",
      method: "POST",
      className: "signOutButton",
      hidden: [],
      button: "Sign Out",
    });
    const form = parse(
      await renderPage(
        `<SignOut signOutPage="bye" className="quiet" options={{ redirectTo: "/", redirect: false }}>{#snippet submitButton()}<span>Leave</span>{/snippet}</SignOut>`,
        "runes",
      ),
    );
    expect(form).toMatchObject({
      action: "/base/bye",
      className: "signOutButton quiet",
      hidden: [
        ["redirect", "false"],
        ["redirectTo", "/"],
      ],
      button: "Leave",
    });
  });
});
