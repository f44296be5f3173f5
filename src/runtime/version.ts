import { version } from '../../package.json';

export const RUNTIME_VERSION: string = version;
