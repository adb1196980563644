import { startInputFrame } from '../input-frame';

startInputFrame('radio');
