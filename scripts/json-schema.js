#!/usr/bin/env node
// Writes dist/schema/service.schema.json, the JSON Schema of a service file (what `fw schema`
// prints), from the compiled typanion schemas: editors point yaml-language-server at it.
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { serviceJsonSchema } = require('../dist/src/service/json-schema');

const out = path.join(__dirname, '..', 'dist', 'schema', 'service.schema.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(serviceJsonSchema(), null, 2)}\n`);
