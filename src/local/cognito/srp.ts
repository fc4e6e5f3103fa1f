import { createHash, createHmac, getDiffieHellman, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Cognito's Secure Remote Password sign-in (USER_SRP_AUTH, then the PASSWORD_VERIFIER challenge), the
 * server's half: SRP-6a over the 3072-bit MODP group of RFC 3526 (g = 2), SHA-256, k = H(N, g),
 * numbers hashed in their padded big-endian form (a leading zero byte when the top bit is set, as the
 * client libraries pad them), the password key HKDF-derived with the info "Caldera Derived Key", and the
 * client's proof an HMAC-SHA256 over pool name, user, secret block and timestamp.
 */

/** The group's prime, as Node knows RFC 3526's group 15. */
const N = BigInt(`0x${getDiffieHellman('modp15').getPrime('hex')}`);
const G = 2n;

/** A positive number's bytes, big-endian, with a zero byte first when the top bit is set (a positive two's-complement number). */
function padded(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (/^[89a-f]/.test(hex)) hex = `00${hex}`;
  return Buffer.from(hex, 'hex');
}

const sha256 = (...parts: (Buffer | string)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const toNumber = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex') || '0'}`);

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let square = base % modulus;
  for (let rest = exponent; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = (result * square) % modulus;
    square = (square * square) % modulus;
  }
  return result;
}

const K = toNumber(sha256(padded(N), padded(G)));

/** What a user's password becomes for SRP: the salt and the verifier g^x (hex), x = H(salt, H(<pool name><user>:<password>)). */
export interface SrpVerifier {
  salt: string;
  verifier: string;
}

const privateKey = (poolName: string, username: string, password: string, salt: bigint) =>
  toNumber(sha256(padded(salt), sha256(`${poolName}${username}:${password}`)));

export function srpVerifier(poolName: string, username: string, password: string): SrpVerifier {
  const salt = toNumber(randomBytes(16));
  const verifier = modPow(G, privateKey(poolName, username, password, salt), N);
  return { salt: padded(salt).toString('hex'), verifier: verifier.toString(16) };
}

/** The server's side of one sign-in: its secret b and public B = k·v + g^b (mod N). */
export interface SrpExchange {
  A: string;
  b: string;
  B: string;
}

/** Starts the exchange on the client's SRP_A (hex); undefined when A is not a valid public value (A mod N = 0, or not hex). */
export function srpStart(verifier: SrpVerifier, srpA: string): SrpExchange | undefined {
  if (!/^[0-9a-fA-F]+$/.test(srpA)) return undefined;
  const A = BigInt(`0x${srpA}`);
  if (A % N === 0n) return undefined;
  const v = BigInt(`0x${verifier.verifier}`);
  let b = 0n;
  let B = 0n;
  while (B === 0n) {
    b = toNumber(randomBytes(64));
    B = (K * v + modPow(G, b, N)) % N;
  }
  return { A: A.toString(16), b: b.toString(16), B: B.toString(16) };
}

/** The 16-byte key both sides derive: HKDF-SHA256(ikm S, salt u, info "Caldera Derived Key"), S = (A·v^u)^b, u = H(A, B). */
function passwordKey(verifier: SrpVerifier, exchange: SrpExchange): Buffer {
  const A = BigInt(`0x${exchange.A}`);
  const B = BigInt(`0x${exchange.B}`);
  const u = toNumber(sha256(padded(A), padded(B)));
  const v = BigInt(`0x${verifier.verifier}`);
  const S = modPow((A * modPow(v, u, N)) % N, BigInt(`0x${exchange.b}`), N);
  return Buffer.from(hkdfSync('sha256', padded(S), padded(u), 'Caldera Derived Key', 16));
}

/**
 * Whether PASSWORD_CLAIM_SIGNATURE (base64) is HMAC-SHA256(key, <pool name> <user> <secret block bytes> <timestamp>),
 * i.e. whether the client knew the password.
 */
export function srpSignatureMatches(
  verifier: SrpVerifier,
  exchange: SrpExchange,
  claim: { poolName: string; username: string; secretBlock: string; timestamp: string; signature: string },
): boolean {
  const expected = createHmac('sha256', passwordKey(verifier, exchange))
    .update(claim.poolName)
    .update(claim.username)
    .update(Buffer.from(claim.secretBlock, 'base64'))
    .update(claim.timestamp)
    .digest();
  const given = Buffer.from(claim.signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (value: number) => String(value).padStart(2, '0');

/** TIMESTAMP as the clients write it: "ddd MMM D HH:mm:ss UTC YYYY" (`Tue Nov 3 09:05:07 UTC 2026`, the day unpadded). */
export function srpTimestamp(date: Date): string {
  return `${WEEKDAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} UTC ${date.getUTCFullYear()}`;
}

/**
 * A PASSWORD_VERIFIER TIMESTAMP checked as Cognito checks it: 'format' when it is not a date of the form
 * "EEE MMM d HH:mm:ss z yyyy", 'mismatch' when it is but not written exactly as the clients write it
 * (a zero-padded day, a weekday that is not the date's), which fails the signature on AWS.
 */
export function srpTimestampProblem(timestamp: string): 'format' | 'mismatch' | undefined {
  const match = /^([A-Za-z]{3}) ([A-Za-z]{3}) (\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) ([A-Z]{3}) (\d{4})$/.exec(timestamp);
  const month = match ? MONTHS.indexOf(match[2]) : -1;
  if (!match || month < 0 || match[7] !== 'UTC') return 'format';
  const date = new Date(Date.UTC(Number(match[8]), month, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])));
  return srpTimestamp(date) === timestamp ? undefined : 'mismatch';
}
