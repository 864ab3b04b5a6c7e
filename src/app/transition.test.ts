import { describe, expect, it } from 'vitest';
import { transitionDirection } from './transition';

describe('page transition direction', () => {
  it('slides right when going to a shorter path', () => {
    expect(transitionDirection('/companies/1/goals/7', '/companies/1/goals')).toBe('right');
    expect(transitionDirection('/profile/admin', '/dashboard')).toBe('right');
  });

  it('slides left when going to a longer path', () => {
    expect(transitionDirection('/companies/1/goals', '/companies/1/goals/7')).toBe('left');
    expect(transitionDirection('/dashboard', '/profile/admin')).toBe('left');
  });

  it('slides left between paths of the same length', () => {
    expect(transitionDirection('/dashboard', '/profile')).toBe('left');
    expect(transitionDirection('/profile', '/dashboard')).toBe('left');
  });

  it('ignores query strings and trailing slashes', () => {
    expect(transitionDirection('/companies/1/projects?status=NEW', '/companies/1/projects/')).toBe('left');
    expect(transitionDirection('/companies/1/projects/5/', '/companies/1/projects?status=NEW')).toBe('right');
  });
});
