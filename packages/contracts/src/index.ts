export * from './config';
export * from './errors';
export * from './health';
export * from './messages';
export * from './plans';
export * from './product-defaults';
