import { startInputFrame } from '../input-frame';

startInputFrame('input-field');
