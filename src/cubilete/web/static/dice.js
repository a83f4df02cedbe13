// Dice drawn as SVG pips.

const SVG = "http://www.w3.org/2000/svg";

// pip centres on a 100x100 face
const L = 27;
const M = 50;
const R = 73;
const PIPS = {
  1: [[M, M]],
  2: [[L, L], [R, R]],
  3: [[L, L], [M, M], [R, R]],
  4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [M, M], [L, R], [R, R]],
  6: [[L, L], [R, L], [L, M], [R, M], [L, R], [R, R]],
};

/** An <svg> die showing face (1-6; anything else draws a blank die). */
export function dieSvg(face, size = 56) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("die-svg");
  const body = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 4, y: 4, width: 92, height: 92, rx: 18, ry: 18, class: "die-body" })) {
    body.setAttribute(k, String(v));
  }
  svg.append(body);
  for (const [cx, cy] of PIPS[face] || []) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", String(cx));
    pip.setAttribute("cy", String(cy));
    pip.setAttribute("r", "9");
    pip.setAttribute("class", face === 1 ? "pip pip-one" : "pip");
    svg.append(pip);
  }
  return svg;
}

/** A small row of dice (history lists, replay). */
export function diceRow(faces, { size = 26, held = [] } = {}) {
  const row = document.createElement("span");
  row.className = "dice-row";
  row.setAttribute("aria-label", faces.join(" "));
  row.setAttribute("role", "img");
  faces.forEach((f, i) => {
    const wrap = document.createElement("span");
    wrap.className = held.includes(i) ? "mini-die kept" : "mini-die";
    wrap.append(dieSvg(f, size));
    row.append(wrap);
  });
  return row;
}
