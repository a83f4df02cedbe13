// Provably fair dice, checked in the browser: pure-JS SHA-256 (crypto.subtle is missing on
// plain-http LAN addresses) and the derivation of every throw from the revealed seed,
// exactly as docs/WEB.md "Provably fair dice" and cubilete.engine.dice.SeededDice describe it.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of bytes (Uint8Array) as a Uint8Array of 32 bytes. */
export function sha256Bytes(data) {
  const bitLen = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  // the length is at most 2^53 bits here: write it as two 32-bit halves
  view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) | 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

const encoder = new TextEncoder();

/** SHA-256 of a text's UTF-8 bytes, lowercase hex. */
export function sha256Hex(text) {
  return Array.from(sha256Bytes(encoder.encode(text)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Throw number index (0-based, game-wide) of count dice: bytes below 252 of sha256("seed:index:block"). */
export function deriveThrow(seed, index, count) {
  const faces = [];
  for (let block = 0; faces.length < count; block++) {
    for (const b of sha256Bytes(encoder.encode(`${seed}:${index}:${block}`))) {
      if (b < 252) faces.push((b % 6) + 1);
    }
  }
  return faces.slice(0, count);
}

/** Duplicate dice (cubilete.engine.dice.DuplicateDice): each die by its place only, sha256("seed:dup:place:die:block"). */
export function deriveAt(seed, place, positions) {
  return positions.map((position) => {
    for (let block = 0; ; block++) {
      for (const b of sha256Bytes(encoder.encode(`${seed}:dup:${place}:${position}:${block}`))) {
        if (b < 252) return (b % 6) + 1;
      }
    }
  });
}

/**
 * Recheck a finished game: sha256(seed) must equal the commitment and every recorded throw must
 * equal its derivation: by throw index, or for duplicate dice (``places``, from replay.js throwPlaces) by
 * each throw's place. Answers {ok, throws, problem}; problem is null or {kind: "noseed"} /
 * {kind: "commitment"} / {kind: "throw", index (1-based), got, want} / {kind: "unplaced", index}.
 */
export function verify(seed, commitment, throws, places = null) {
  const count = Array.isArray(throws) ? throws.length : 0;
  if (typeof seed !== "string" || !seed) return { ok: false, throws: count, problem: { kind: "noseed" } };
  if (typeof commitment !== "string" || sha256Hex(seed) !== commitment.trim().toLowerCase()) {
    return { ok: false, throws: count, problem: { kind: "commitment" } };
  }
  for (let i = 0; i < count; i++) {
    const got = throws[i];
    if (places && !places[i]) return { ok: false, throws: count, problem: { kind: "unplaced", index: i + 1 } };
    const want = places ? deriveAt(seed, places[i].place, places[i].positions) : deriveThrow(seed, i, Array.isArray(got) ? got.length : 0);
    if (!Array.isArray(got) || got.length !== want.length || got.some((f, j) => f !== want[j])) {
      return { ok: false, throws: count, problem: { kind: "throw", index: i + 1, got, want } };
    }
  }
  return { ok: true, throws: count, problem: null };
}

/** The verdict as a sentence, with t() from i18n.js. */
export function describe(result, t) {
  if (result.ok) return t("fair.ok", { n: result.throws });
  const p = result.problem;
  if (p.kind === "noseed") return t("fair.noseed");
  if (p.kind === "commitment") return t("fair.badcommit");
  if (p.kind === "unplaced") return t("fair.unplaced", { i: p.index });
  const show = (faces) => (Array.isArray(faces) ? faces.join(" ") : String(faces));
  return t("fair.badthrow", { i: p.index, got: show(p.got), want: show(p.want) });
}

// --- the site's signature (docs/WEB.md "Signed records"; cubilete.engine.signature) ---------------------------

/** The signed bytes' text: compact JSON, keys sorted, as Python's json.dumps(sort_keys=True,
 * separators=(",", ":"), ensure_ascii=False) writes the record without its "signature" field. */
export function canonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function fromBase64(text) {
  const raw = atob(text);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/**
 * Check the record's signature in the browser against the site's listing (GET /api/site-key).
 * Answers {state}: "ok", "bad", "unsigned", "unknownkey", or "unsupported" when this browser has no
 * WebCrypto Ed25519 (crypto.subtle is also missing on plain-http addresses other than localhost).
 */
export async function verifySignature(record, listing) {
  const sig = record && record.signature;
  if (!sig || typeof sig !== "object") return { state: "unsigned" };
  const keys = listing ? [listing.current, ...(listing.former || [])] : [];
  const key = keys.find((k) => k && k.id === sig.key);
  if (!key) return { state: "unknownkey", key: String(sig.key) };
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return { state: "unsupported" };
  let publicKey;
  try {
    publicKey = await subtle.importKey("raw", fromBase64(key.public), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return { state: "unsupported" };
  }
  const body = {};
  for (const [k, v] of Object.entries(record)) if (k !== "signature") body[k] = v;
  let ok = false;
  try {
    ok = await subtle.verify({ name: "Ed25519" }, publicKey, fromBase64(sig.value), encoder.encode(canonicalJSON(body)));
  } catch {
    ok = false; // a signature that is not even base64 or 64 bytes
  }
  return { state: ok ? "ok" : "bad", key: sig.key };
}

/** The signature verdict as a sentence; ``where`` is "browser" or "server" (who checked it). */
export function describeSignature(result, t) {
  if (result.state === "checking") return t("sig.checking");
  if (result.state === "ok") return t(result.where === "server" ? "sig.okserver" : "sig.ok", { key: result.key });
  if (result.state === "unsigned") return t("sig.unsigned");
  if (result.state === "unknownkey") return t("sig.unknownkey", { key: result.key });
  if (result.state === "error") return t("sig.error");
  return t(result.where === "server" ? "sig.badserver" : "sig.bad");
}
