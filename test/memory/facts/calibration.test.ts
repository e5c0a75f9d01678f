import { describe, expect, it } from 'vitest';
import { LOCAL_EMBEDDING_MODEL } from '../../../src/memory/embeddings/localEmbedder.js';
import { calibrationFor, DEFAULT_CALIBRATION } from '../../../src/memory/facts/calibration.js';

describe('embedder calibration', () => {
  it('gives the local embedder the similarities measured for it, not the default', () => {
    expect(calibrationFor(LOCAL_EMBEDDING_MODEL)).not.toEqual(DEFAULT_CALIBRATION);
  });

  it('gives a model never measured the documented default', () => {
    expect(calibrationFor('some-provider/embedding-model')).toEqual(DEFAULT_CALIBRATION);
  });
});
