/** The secure-field frame types: one html + js each (the protocol's list). No DOM types here (the gateway imports this). */
export { FRAME_FIELD_TYPES as FIELD_TYPES, type FrameFieldType as FieldType } from '@roots/contracts/frame-protocol';
