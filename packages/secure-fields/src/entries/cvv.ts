import { startFrame } from '../frame';

startFrame('cvv');
