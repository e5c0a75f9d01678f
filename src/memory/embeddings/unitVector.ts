/** The vector scaled to length 1, as Float32: stored vectors are compared by cosine and dot product alike. */
export function unitVector(values: ArrayLike<number>, model: string): Float32Array {
  let norm = 0;
  for (let i = 0; i < values.length; i++) norm += values[i]! * values[i]!;
  norm = Math.sqrt(norm);
  // A zero vector has no direction: no similarity to it means anything.
  if (!(norm > 0)) throw new Error(`embedding model '${model}' returned a zero vector`);
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = values[i]! / norm;
  return vector;
}
