import type { Source } from '../source';
import { aws } from './aws';
import { cf } from './cf';
import { env } from './env';
import { file } from './file';
import { opt } from './opt';
import { param } from './param';
import { s3 } from './s3';
import { self } from './self';
import { sls } from './sls';
import { ssm } from './ssm';
import { strToBool } from './str-to-bool';

/** Every variable source by its name in `${name:…}`. */
export const sources: Record<string, Source> = { self, opt, env, sls, file, strToBool, param, aws, cf, s3, ssm };
