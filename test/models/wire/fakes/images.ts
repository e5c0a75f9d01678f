import { startFake, type FakeProvider, type WireFormat } from './server.js';

// OpenAI's and xAI's image generation API: POST /v1/images/generations answers
// `{created, data: [{b64_json}]}`. The answer's text is the image bytes, base64-encoded.

export const imagesWire: WireFormat = {
  name: 'images',
  wantsStream: () => false,
  json: (answer) => ({ created: 1_760_000_000, data: [{ b64_json: (answer.text ?? []).join('') }] }),
  stream: () => {
    throw new Error('the images API does not stream');
  },
  errorBody: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: null } }),
};

export function startImagesFake(): Promise<FakeProvider> {
  return startFake(imagesWire);
}
