import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serviceNameProblem } from '../../src/create/names';

const names = suite('serviceNameProblem');

names('accepts letters, digits and dashes that start with a letter', () => {
  assert.equal(['api', 'my-service', 'Orders2', 'a-1-b'].map(serviceNameProblem), [undefined, undefined, undefined, undefined]);
});

names('says why each bad name is refused', () => {
  assert.equal(
    ['', '1api', '-api', 'my_service', 'my service', 'café', 'a'.repeat(41)].map(serviceNameProblem),
    [
      'a service name is required',
      '"1api" must start with a letter',
      '"-api" must start with a letter',
      '"my_service" may contain only letters, digits and dashes',
      '"my service" may contain only letters, digits and dashes',
      '"café" may contain only letters, digits and dashes',
      `"${'a'.repeat(41)}" is longer than 40 characters`,
    ],
  );
});

names.run();
