import { startInputFrame } from '../input-frame';

startInputFrame('pin');
