import { startInputFrame } from '../input-frame';

startInputFrame('file-input');
