import { measureGrading } from '../grading.ts';
await measureGrading(2000);
for (let i = 0; i < 3; i++) console.log(await measureGrading(20000));
