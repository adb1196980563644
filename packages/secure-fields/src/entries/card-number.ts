import { startFrame } from '../frame';

startFrame('card-number');
