/**
 * Languages: the `locale` option (a tag or a function of the request) and typed `messages`
 * overrides, for the core and for each extension. Keys are the English dictionary's, so a typo is
 * a compile error; a locale Tessera does not ship may be added.
 */
import type { AuthConfig, CoreMessages, MessageOverrides } from "@tessera/core";
import { coreMessages, createTranslator } from "@tessera/core/i18n";
import { type PasswordMessages, password } from "@tessera/core/password";
import Credentials from "@tessera/core/providers/credentials";
import { twoFactor } from "@tessera/core/two-factor";

export const byTag: AuthConfig = {
  providers: [Credentials({ authorize: () => null })],
  locale: "de",
  messages: {
    de: { "signIn.title": "Einloggen", "verifyRequest.title": "Schauen Sie ins Postfach" },
    it: { "signIn.title": "Accedi" },
  },
};

export const byRequest: AuthConfig = {
  providers: [],
  locale: (request) => new URL(request.url).searchParams.get("lang") ?? undefined,
};

export const typo: AuthConfig = {
  providers: [],
  messages: {
    // @ts-expect-error: "signIn.titel" is no key of the English dictionary
    de: { "signIn.titel": "Anmelden" },
  },
};

// @ts-expect-error: a locale callback returns a tag or undefined, not a number
export const wrongCallback: AuthConfig = { providers: [], locale: () => 42 };

// @ts-expect-error: a text is a string
export const notAString: MessageOverrides<CoreMessages> = { de: { "signIn.title": 1 } };

export const twoFactorTexts = twoFactor({
  messages: { fr: { "twoFactor.title": "Double authentification" } },
});

// @ts-expect-error: the two-factor dictionary has no core keys
twoFactor({ messages: { fr: { "signIn.title": "Connexion" } } });

export const passwordTexts: MessageOverrides<PasswordMessages> = {
  es: { "password.signIn.forgot": "¿No recuerdas la contraseña?" },
};
password({ messages: passwordTexts });

const t = createTranslator(coreMessages, "ja");
export const title: string = t("signIn.title");
// @ts-expect-error: "signIn.titel" is no key of the core dictionary
t("signIn.titel");
