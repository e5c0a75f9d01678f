// pgvector's text form of a vector: '[1,-0.5,2.5e-05]'. A float32 printed as a JS number is exact,
// so a vector makes the round trip unchanged.

export function vectorLiteral(vector: Float32Array): string {
  return `[${vector.join(',')}]`;
}

export function parseVector(text: string): number[] {
  return JSON.parse(text) as number[];
}
