import { startInputFrame } from '../input-frame';

startInputFrame('dropdown');
