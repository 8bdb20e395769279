import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";

// The suite is only worth something if it fails for broken adapters. This runs it in a separate
// vitest process against the memory adapter with one fault injected per variant
// (fixtures/broken-adapters.fixture.ts) and checks which tests fail.

interface AssertionResult {
  ancestorTitles: string[];
  title: string;
  status: "passed" | "failed" | "skipped" | "pending" | "todo";
}

interface JsonReport {
  testResults: { assertionResults: AssertionResult[] }[];
}

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const vitestCli = join(
  createRequire(import.meta.url).resolve("vitest/package.json"),
  "..",
  "vitest.mjs",
);

let results: AssertionResult[] = [];

/** The titles of the failed tests of one variant (the suite name starts with the variant). */
function failuresOf(variant: string): string[] {
  return results
    .filter((result) => result.ancestorTitles[0] === `${variant}: adapter conformance`)
    .filter((result) => result.status === "failed")
    .map((result) => result.title);
}

function titlesOf(variant: string): string[] {
  return testsOf(variant).map((result) => result.title);
}

function testsOf(variant: string): AssertionResult[] {
  return results.filter((result) => result.ancestorTitles[0] === `${variant}: adapter conformance`);
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "tessera-adapter-test-"));
  const outputFile = join(dir, "report.json");
  try {
    await promisify(execFile)(
      process.execPath,
      [
        vitestCli,
        "run",
        "--config",
        join(fixtures, "vitest.config.ts"),
        "--reporter=json",
        `--outputFile=${outputFile}`,
      ],
      { cwd: fixtures, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: unknown) => {
      // vitest exits with 1 because the broken variants fail: that is the point.
      if (!(error instanceof Error && "code" in error && error.code === 1)) throw error;
    });
    const report = JSON.parse(await readFile(outputFile, "utf8")) as JsonReport;
    results = report.testResults.flatMap((file) => file.assertionResults);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

describe("the conformance suite", () => {
  test("passes a correct adapter completely", () => {
    expect(testsOf("control").length).toBeGreaterThan(50);
    expect(failuresOf("control")).toEqual([]);
  });

  test("passes an adapter that assigns its own serial ids", () => {
    expect(testsOf("own serial ids").length).toBeGreaterThan(50);
    expect(failuresOf("own serial ids")).toEqual([]);
  });

  test("passes an adapter without unique e-mails that declares it, and checks the declaration", () => {
    expect(failuresOf("without unique e-mails, declared")).toEqual([]);
    expect(titlesOf("without unique e-mails, declared")).toContain(
      "createUser accepts a second user with a taken e-mail, as declared by uniqueEmail: false",
    );
    expect(titlesOf("without unique e-mails, declared")).not.toContain(
      "createUser rejects a second user with an e-mail that is already taken",
    );
  });

  test("fails a declared weakness that the adapter does not have", () => {
    expect(failuresOf("unique e-mails declared absent but enforced")).toEqual([
      "createUser accepts a second user with a taken e-mail, as declared by uniqueEmail: false",
    ]);
    expect(failuresOf("WebAuthn declared absent but implemented")).toEqual([
      "has none of the WebAuthn methods, as declared by authenticators: false",
    ]);
  });

  test("catches a createUser that returns an id the user is not stored under", () => {
    expect(failuresOf("createUser returning an id it did not store")).toContain(
      "createUser stores the user and returns it with the id it is stored under",
    );
  });

  test("catches a createUser that gives every user without an id the same one", () => {
    expect(failuresOf("createUser giving every user without an id the same one")).toEqual([
      "createUser assigns distinct ids when the core passes none",
    ]);
  });

  test("catches a linkAccount that loses a token field, without reading it through getAccount", () => {
    expect(failuresOf("linkAccount dropping the refresh token")).toEqual(
      expect.arrayContaining([
        "linkAccount stores every OAuth token field",
        "getAccount returns a linked account with every OAuth token field",
      ]),
    );
  });

  test("catches a getAccount that ignores the provider", () => {
    expect(failuresOf("getAccount ignoring the provider")).toEqual([
      "getAccount does not match the same account id at another provider",
    ]);
  });

  test("catches an updateSession that returns the session as it was before the update", () => {
    expect(failuresOf("updateSession returning the session as it was")).toEqual([
      "updateSession moves the expiry, and what it returns is the updated session",
    ]);
  });

  test("catches a missing field although extra fields are allowed", () => {
    expect(failuresOf("getSessionAndUser leaving out the user's e-mail")).toContain(
      "getSessionAndUser returns the session together with its user",
    );
  });

  test("catches a useVerificationToken that lets two racing callers have the token", () => {
    expect(failuresOf("racy useVerificationToken")).toEqual([
      "50 parallel useVerificationToken calls on one token let exactly one caller have it",
    ]);
  });

  test("catches dates that lose their milliseconds", () => {
    expect(failuresOf("expires truncated to seconds")).toContain(
      "createSession stores the session and returns it with the exact expiry",
    );
  });

  test("catches undefined returned where the contract says null", () => {
    expect(failuresOf("undefined instead of null")).toContain(
      "getUser returns null for an unknown id",
    );
  });

  test("catches a deleteUser that leaves sessions, accounts and authenticators behind", () => {
    expect(failuresOf("deleteUser without cascade")).toEqual(
      expect.arrayContaining([
        "deleteUser removes the user and cascades to its sessions and accounts",
        "deleteUser cascades to the user's WebAuthn authenticators",
      ]),
    );
  });

  test("catches session tokens matched without regard to letter case", () => {
    expect(failuresOf("case-insensitive session lookup")).toEqual([
      "getSessionAndUser matches the session token exactly, including letter case",
    ]);
  });

  test("catches listAuthenticatorsByUserId returning something other than [] for unknown users", () => {
    expect(failuresOf("listAuthenticatorsByUserId without an empty array")).toContain(
      "listAuthenticatorsByUserId returns an empty array for an unknown user",
    );
  });

  test("catches transports null not read back as null", () => {
    expect(failuresOf("transports null turned into a string")).toContain(
      "an authenticator stored with transports null is read back with transports null",
    );
  });

  test("catches updateAuthenticatorCounter not throwing for an unknown credential", () => {
    expect(failuresOf("updateAuthenticatorCounter silent on unknown ids")).toEqual([
      "updateAuthenticatorCounter rejects for an unknown credential id",
    ]);
  });

  test("catches an updateAccount that loses the token fields it was not given", () => {
    expect(failuresOf("updateAccount replacing the account with the fields given")).toEqual([
      "updateAccount writes refreshed tokens and keeps the fields it was not given",
      "updateAccount clears a field given as null",
    ]);
  });

  test("fails, not skips, when an adapter lacks methods the suite covers", () => {
    const failures = failuresOf("without the session-listing extension");
    expect(failures).toContain("implements every method of the contract that the suite covers");
    expect(failures).toContain("listSessionsByUserId returns an empty array for an unknown user");
    expect(
      testsOf("without the session-listing extension").some((t) => t.status === "skipped"),
    ).toBe(false);
  });
});
