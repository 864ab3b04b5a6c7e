// Page-change direction of spec section 2: going to a shorter path slides right, otherwise left.
// "Shorter" counts path segments, so going up the hierarchy (a goal back to the goal list) slides right.

export type TransitionDirection = 'left' | 'right';

function depth(path: string): number {
  return (path.split(/[?#]/)[0] ?? '').split('/').filter(Boolean).length;
}

export function transitionDirection(from: string, to: string): TransitionDirection {
  return depth(to) < depth(from) ? 'right' : 'left';
}
