export * from './version';
export * from './errors';
export * from './records';
export * from './events';
export * from './methods';
export * from './transport';
export * from './change-batch';
