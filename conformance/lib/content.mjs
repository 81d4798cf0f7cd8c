// What the official suite's server scenarios (@modelcontextprotocol/conformance
// 0.1.16) ask each named tool, resource and prompt to hold, written once for
// every TypeScript conformance server so the SDK 1.x and 2.x servers differ
// only in how they are built.

/** A 1×1 blue pixel as a PNG, for image tool content, image prompts and the binary resource. */
export const PNG_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz38NAAIqAXp4ksuCAAAAAElFTkSuQmCC';

/** Four samples of silence as a WAV file (PCM, mono, 16-bit, 8 kHz), base64. */
export const WAV_SILENCE = wavSilence(4);

function wavSilence(samples) {
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24); // sample rate
  wav.writeUInt32LE(8000 * 2, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav.toString('base64');
}

/**
 * The input schema `json_schema_2020_12_tool` lists, exactly as written: the
 * scenario checks that `$schema`, `$defs` and `additionalProperties` survive
 * into tools/list.
 */
export const ADDRESS_BOOK_ENTRY_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' }
      }
    }
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' }
  },
  additionalProperties: false
};

/** The form `test_elicitation` asks the user to fill in. */
export const CONTACT_FORM = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" }
  },
  required: ['username', 'email']
};

/** SEP-1034: a default for every primitive type a form field may have. */
export const PROFILE_FORM_WITH_DEFAULTS = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Full name', default: 'John Doe' },
    age: { type: 'integer', description: 'Age in years', default: 30 },
    score: { type: 'number', description: 'Last score', default: 95.5 },
    status: { type: 'string', description: 'Account status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Whether the account is verified', default: true }
  },
  required: []
};

/** SEP-1330: the five ways a form field may offer a choice. */
export const CHOICES_FORM = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Pick one (titled)',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' }
      ]
    },
    legacyEnum: {
      type: 'string',
      description: 'Pick one (titled the pre-2025-11-25 way)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three']
    },
    untitledMulti: {
      type: 'array',
      description: 'Pick one to three',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] }
    },
    titledMulti: {
      type: 'array',
      description: 'Pick one to three (titled)',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' }
        ]
      }
    }
  },
  required: []
};

/** Words `completion/complete` offers for a prompt argument, by prefix. */
export const CITY_WORDS = ['paris', 'park', 'party', 'perth', 'porto', 'prague'];

export function completeWord(prefix) {
  return CITY_WORDS.filter((word) => word.startsWith(prefix.toLowerCase()));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
