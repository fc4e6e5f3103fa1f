import { addressPath, type Source } from '../source';

/** `${self:custom.table}`: any path of the service file, resolved first; `${self:}` is the whole file. */
export const self: Source = (ref, { self }) => self(addressPath(ref.address ?? ''));
