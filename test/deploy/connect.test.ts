import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { localPort } from '../../src/deploy/connect';

const port = suite('the port of --local');

port('is 4566 unless FW_LOCAL_PORT names another, 0 meaning a free one', () => {
  assert.equal([localPort({}), localPort({ FW_LOCAL_PORT: '5000' }), localPort({ FW_LOCAL_PORT: '0' })], [4566, 5000, 0]);
});

port('a FW_LOCAL_PORT that is not a port is one line naming the value', () => {
  assert.throws(() => localPort({ FW_LOCAL_PORT: '45x' }), (error: Error) => error.message === 'Invalid FW_LOCAL_PORT: expected a port number from 0 to 65535, got "45x"');
  assert.throws(() => localPort({ FW_LOCAL_PORT: '70000' }), (error: Error) => error.message === 'Invalid FW_LOCAL_PORT: expected a port number from 0 to 65535, got "70000"');
});

port.run();
