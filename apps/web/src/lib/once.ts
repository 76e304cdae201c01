/** `make()` once, at the first call (a value whose building can wait until it is needed). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
