/**
 * A software WebAuthn authenticator for the unit tests: it creates real P-256 key pairs, encodes
 * real attestation objects (`fmt: "none"`) and signs real assertions, exactly as W3C WebAuthn §6
 * lays them out, so the verification under test runs on genuine cryptography. What a hardware
 * authenticator would never do — sign for another origin or RP ID, or rewind its counter — is a
 * parameter here, because those are the attacks the tests need. The end-to-end test uses
 * Chromium's own virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/** The JSON options Tessera sends (the fields this authenticator reads). */
export interface CreationOptionsJSON {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}
export interface RequestOptionsJSON {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

/** Tweaks that make a response dishonest (or merely unusual). */
export interface Tweaks {
  /** Origin written into clientDataJSON (default: the authenticator's origin). */
  origin?: string;
  /** RP ID whose hash goes into authenticator data (default: the options' RP ID). */
  rpId?: string;
  /** Challenge written into clientDataJSON (default: the options' challenge). */
  challenge?: string;
  /** clientDataJSON `type` (default `webauthn.create` / `webauthn.get`). */
  type?: string;
  /** Signature counter to report (default: the next value). */
  counter?: number;
  /** Whether the user was verified (UV flag). Default true. */
  userVerified?: boolean;
  /** Credential to use for an assertion (default: the first one for the RP ID). */
  credentialId?: string;
}

interface Credential {
  id: Uint8Array;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Minimal CBOR (RFC 8949) encoder: unsigned/negative integers, byte and text strings, maps. */
type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}
export function cbor(value: CborValue): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts: Buffer[] = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

/** COSE_Key (RFC 9053 §7.1.1) of a P-256 public key, ES256. */
function coseKey(privateKey: KeyObject): Buffer {
  const jwk = privateKey.export({ format: "jwk" });
  return cbor(
    new Map<CborValue, CborValue>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x as string, "base64url")],
      [-3, Buffer.from(jwk.y as string, "base64url")],
    ]),
  );
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter >>> 0);
  return Buffer.concat([
    sha256(rpId),
    Buffer.from([flags]),
    count,
    ...(attested ? [attested] : []),
  ]);
}

/** One software authenticator, with the credentials it created. */
export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  /**
   * @param origin the page origin the "browser" reports
   * @param counterStep how much the signature counter grows per use (0: never, like most passkeys)
   */
  constructor(
    readonly origin = "http://localhost:3000",
    readonly counterStep = 1,
  ) {}

  /** `navigator.credentials.create()`: returns RegistrationResponseJSON. */
  register(options: CreationOptionsJSON, tweaks: Tweaks = {}) {
    const rpId = tweaks.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const id = randomBytes(16);
    const counter = tweaks.counter ?? 0;
    const credential: Credential = {
      id,
      privateKey,
      rpId,
      userHandle: options.user.id,
      counter,
    };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey(privateKey)]);
    const flags = FLAG_UP | FLAG_AT | (tweaks.userVerified === false ? 0 : FLAG_UV);
    const authData = authenticatorData(rpId, flags, counter, attested);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: tweaks.type ?? "webauthn.create",
        challenge: tweaks.challenge ?? options.challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`: returns AuthenticationResponseJSON. */
  authenticate(options: RequestOptionsJSON, tweaks: Tweaks = {}) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential = this.credentials.find((c) =>
      tweaks.credentialId
        ? b64url(c.id) === tweaks.credentialId
        : c.rpId === rpId && (allowed.size === 0 || allowed.has(b64url(c.id))),
    );
    if (!credential) throw new Error("SoftAuthenticator: no credential for this request");
    credential.counter = tweaks.counter ?? credential.counter + this.counterStep;
    const flags = FLAG_UP | (tweaks.userVerified === false ? 0 : FLAG_UV);
    const authData = authenticatorData(tweaks.rpId ?? rpId, flags, credential.counter);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: tweaks.type ?? "webauthn.get",
        challenge: tweaks.challenge ?? options.challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
