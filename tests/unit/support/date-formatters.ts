// Counting the date formatters code builds: building one costs far more than using one, so a test of a cache
// of them asks how many a second use builds.

/** How many `Intl.DateTimeFormat`s `run` builds (with or without `new`). */
export function countDateFormatters(run: () => void): number {
  const original = Intl.DateTimeFormat;
  let built = 0;
  const counting = (target: typeof original, args: ConstructorParameters<typeof original>) => {
    built += 1;
    return new target(...args);
  };
  Intl.DateTimeFormat = new Proxy(original, {
    construct: (target, args: ConstructorParameters<typeof original>) => counting(target, args),
    apply: (target, _this, args: ConstructorParameters<typeof original>) => counting(target, args),
  });
  try {
    run();
  } finally {
    Intl.DateTimeFormat = original;
  }
  return built;
}
