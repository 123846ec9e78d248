// The visualisation rules of spec 002 §3, §5 and §9: pure functions for the renderers in src/ui.
export * from './messages';
export * from './spec';
export * from './metadata';
export * from './expression';
export * from './links';
export * from './palette';
export * from './chartData';
export * from './carousel';
export * from './metric';
export * from './table';
export * from './options';
