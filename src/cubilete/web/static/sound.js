// Optional sounds (off until the player turns them on; the choice is kept in this browser): a short rattle
// for a throw and a chime for a box written, made with the Web Audio API (no sound files to download).
// document.body.dataset.sounds counts the sounds played, so a test can tell without hearing.

const KEY = "cubilete-sound";
let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // a browser refusing storage: the choice lasts this page only
  }
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  return context;
}

function tone(ctx, frequency, start, length, volume) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length);
}

/** Play ``kind`` ("throw" or "write") if sounds are on. */
export function play(kind) {
  if (!soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  if (kind === "throw") {
    for (let i = 0; i < 4; i++) tone(ctx, 180 + 90 * ((i * 7) % 5), 0.04 * i, 0.05, 0.15); // dice on felt
  } else {
    tone(ctx, 660, 0, 0.12, 0.12);
    tone(ctx, 880, 0.09, 0.18, 0.1);
  }
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
}
