/* Villa Paletti: the view of the drawing (scale and offset) that keeps every piece in the
 * picture, eased from one view to the next; the pieces' paint; sampling an animation's
 * tracks. The picture's geometry (3-D) is scene.js's.
 */

// How long the view takes to move to a new one (ms).
const VIEW_TIME = 450;

/* The view that shows `bounds` (picture mm, scene.js) on a canvas `width` CSS px wide: its height (between
 * 240 px and `maxHeight`), the scale (px per mm) and where the world's origin falls. */
export function fitView(bounds, width, maxHeight) {
  const worldW = bounds.xMax - bounds.xMin;
  const worldH = bounds.yMax - bounds.yMin;
  const height = Math.min(maxHeight, Math.max(240, (width * worldH) / worldW));
  const scale = Math.min(width / worldW, height / worldH);
  const middle = (bounds.xMin + bounds.xMax) / 2;
  return {
    width,
    height: Math.round(height),
    scale,
    ox: width / 2 - middle * scale,
    // The table at the bottom: spare height goes above the villa.
    oy: height + bounds.yMin * scale,
  };
}

const ease = (k) => (k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2);

/* A view moving from `from` to `to`: call with the time (ms) for the view at that time;
 * `done` says whether it has arrived. */
export function viewTween(from, to, start, instant) {
  return function at(now) {
    const k = instant || !from ? 1 : Math.min(1, Math.max(0, (now - start) / VIEW_TIME));
    if (k >= 1) return { view: to, done: true };
    const e = ease(k);
    const mix = (a, b) => a + (b - a) * e;
    return {
      view: {
        width: to.width,
        height: Math.round(mix(from.height, to.height)),
        scale: mix(from.scale, to.scale),
        ox: mix(from.ox, to.ox),
        oy: mix(from.oy, to.oy),
      },
      done: false,
    };
  };
}

// The pieces' paint, shared by the front and the side drawings.
export const PAINT = {
  white: "#f6f3ea",
  black: "#25272b",
  purple: "#7d3c98",
  pink: "#e8709f",
  blue: "#2b6cc4",
  green: "#2f9a52",
  yellow: "#e8c12c",
  orange: "#ec8a2d",
  red: "#cf3b3b",
};

// A pose at time t on a track of [t, pose] (null: not in the world), straight between
// frames: both drawings animate the server's frames this way.
export function sample(track, t) {
  let i = 0;
  while (i + 1 < track.length && track[i + 1][0] <= t) i++;
  const [t0, p0] = track[i];
  if (i + 1 >= track.length) return p0;
  const [t1, p1] = track[i + 1];
  if (!p0 || !p1 || t1 <= t0) return p0;
  const k = (t - t0) / (t1 - t0);
  return [p0[0] + (p1[0] - p0[0]) * k, p0[1] + (p1[1] - p0[1]) * k, p0[2] + (p1[2] - p0[2]) * k];
}
