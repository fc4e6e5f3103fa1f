#!/usr/bin/env node
'use strict';
require('../dist/fw.js').main(process.argv.slice(2));
