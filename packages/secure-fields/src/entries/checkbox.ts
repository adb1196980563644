import { startInputFrame } from '../input-frame';

startInputFrame('checkbox');
