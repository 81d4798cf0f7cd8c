package main

// What the official suite's server scenarios (@modelcontextprotocol/conformance
// 0.1.16) ask the tools, resources and prompts to hold, the same values
// conformance/lib/content.mjs gives the TypeScript servers.

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"strings"
)

// pngPixel is a 1×1 blue pixel as a PNG: image tool content, the image prompt and the binary resource.
var pngPixel = mustBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz38NAAIqAXp4ksuCAAAAAElFTkSuQmCC")

// wavSilence is four samples of silence as a WAV file (PCM, mono, 16-bit, 8 kHz).
var wavSilence = func() []byte {
	const samples = 4
	dataBytes := uint32(samples * 2)
	wav := make([]byte, 44+dataBytes)
	copy(wav[0:], "RIFF")
	binary.LittleEndian.PutUint32(wav[4:], 36+dataBytes)
	copy(wav[8:], "WAVE")
	copy(wav[12:], "fmt ")
	binary.LittleEndian.PutUint32(wav[16:], 16)     // fmt chunk size
	binary.LittleEndian.PutUint16(wav[20:], 1)      // PCM
	binary.LittleEndian.PutUint16(wav[22:], 1)      // mono
	binary.LittleEndian.PutUint32(wav[24:], 8000)   // sample rate
	binary.LittleEndian.PutUint32(wav[28:], 8000*2) // byte rate
	binary.LittleEndian.PutUint16(wav[32:], 2)      // block align
	binary.LittleEndian.PutUint16(wav[34:], 16)     // bits per sample
	copy(wav[36:], "data")
	binary.LittleEndian.PutUint32(wav[40:], dataBytes)
	return wav
}()

// addressBookEntrySchema is the input schema `json_schema_2020_12_tool` lists,
// exactly as written: the scenario checks that `$schema`, `$defs` and
// `additionalProperties` survive into tools/list.
var addressBookEntrySchema = json.RawMessage(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "type": "object",
      "properties": {
        "street": {"type": "string"},
        "city": {"type": "string"}
      }
    }
  },
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"}
  },
  "additionalProperties": false
}`)

// contactForm is the form `test_elicitation` asks the user to fill in.
var contactForm = json.RawMessage(`{
  "type": "object",
  "properties": {
    "username": {"type": "string", "description": "User's response"},
    "email": {"type": "string", "description": "User's email address"}
  },
  "required": ["username", "email"]
}`)

// profileFormWithDefaults is SEP-1034: a default for every primitive type a form field may have.
var profileFormWithDefaults = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "Full name", "default": "John Doe"},
    "age": {"type": "integer", "description": "Age in years", "default": 30},
    "score": {"type": "number", "description": "Last score", "default": 95.5},
    "status": {"type": "string", "description": "Account status", "enum": ["active", "inactive", "pending"], "default": "active"},
    "verified": {"type": "boolean", "description": "Whether the account is verified", "default": true}
  },
  "required": []
}`)

// choicesForm is SEP-1330: the five ways a form field may offer a choice.
var choicesForm = json.RawMessage(`{
  "type": "object",
  "properties": {
    "untitledSingle": {"type": "string", "description": "Pick one", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {
      "type": "string",
      "description": "Pick one (titled)",
      "oneOf": [
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"}
      ]
    },
    "legacyEnum": {
      "type": "string",
      "description": "Pick one (titled the pre-2025-11-25 way)",
      "enum": ["opt1", "opt2", "opt3"],
      "enumNames": ["Option One", "Option Two", "Option Three"]
    },
    "untitledMulti": {
      "type": "array",
      "description": "Pick one to three",
      "minItems": 1,
      "maxItems": 3,
      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
    },
    "titledMulti": {
      "type": "array",
      "description": "Pick one to three (titled)",
      "minItems": 1,
      "maxItems": 3,
      "items": {
        "anyOf": [
          {"const": "value1", "title": "First Choice"},
          {"const": "value2", "title": "Second Choice"},
          {"const": "value3", "title": "Third Choice"}
        ]
      }
    }
  },
  "required": []
}`)

// cityWords are the words `completion/complete` offers for a prompt argument, by prefix.
var cityWords = []string{"paris", "park", "party", "perth", "porto", "prague"}

func completeWord(prefix string) []string {
	words := []string{}
	for _, word := range cityWords {
		if strings.HasPrefix(word, strings.ToLower(prefix)) {
			words = append(words, word)
		}
	}
	return words
}

func mustBase64(text string) []byte {
	bytes, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		panic(err)
	}
	return bytes
}
