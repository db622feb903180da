/* Villa Paletti: the player's hand.
 *
 * A pull or a placement is executed with a speed (mm/s) and a steadiness (0 to 1), which
 * the server simulates (docs/paletti.md, "The hand"). A drag on the drawing gives both for a
 * pull: how fast the pointer went sideways, and how straight and even it went. Buttons and
 * keys use presets.
 */

// The engine's accepted range (paletti/engine/hands.py).
const SPEED_MIN = 20;
const SPEED_MAX = 500;
// A drag shorter than this (CSS pixels) is a tap, not a pull.
const MIN_DRAG = 12;

export const PRESETS = {
  gentle: { speed: 60, steadiness: 0.95 },
  quick: { speed: 300, steadiness: 0.5 },
};

// Setting a column down: "Place it here" uses the engine's own default gesture (40 mm/s,
// steadiness 0.8); in a hurry it lands faster and less straight.
export const PLACE_PRESETS = {
  quick: { speed: 250, steadiness: 0.4 },
};

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

/* samples: [{x, y, t}] in CSS pixels and milliseconds, in the order the pointer moved;
 * mmPerPixel: the drawing's scale. Returns {speed, steadiness}, or null for a tap. */
export function fromDrag(samples, mmPerPixel) {
  if (!samples || samples.length < 2) return null;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const dx = last.x - first.x;
  const seconds = (last.t - first.t) / 1000;
  if (Math.abs(dx) < MIN_DRAG || seconds <= 0) return null;
  const speed = clamp((Math.abs(dx) * mmPerPixel) / seconds, SPEED_MIN, SPEED_MAX);
  // An unsteady hand wanders up and down and jerks back against the pull.
  let back = 0;
  let low = first.y;
  let high = first.y;
  for (let i = 1; i < samples.length; i += 1) {
    const step = samples[i].x - samples[i - 1].x;
    if (step !== 0 && Math.sign(step) !== Math.sign(dx)) back += Math.abs(step);
    low = Math.min(low, samples[i].y);
    high = Math.max(high, samples[i].y);
  }
  const wobble = (high - low + 2 * back) / Math.abs(dx);
  return {
    speed: Math.round(speed),
    steadiness: Math.round(clamp(1 - wobble, 0, 1) * 100) / 100,
  };
}
